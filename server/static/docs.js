// Starts the API's docs page (/docs): Swagger UI from the fastapi-offline package, set up in
// this file rather than in an inline script, which the Content-Security-Policy forbids.
"use strict";
window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", layout: "BaseLayout", deepLinking: true});
