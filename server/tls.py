"""A self-signed certificate for `seqcam serve --https`, so phones on the LAN get a secure
page (browsers allow the live camera only there). Made once and kept beside the database."""

from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

VALID_DAYS = 825  # the longest validity phones accept for a certificate


def self_signed(folder: Path, hosts: list[str]) -> tuple[Path, Path]:
    """Certificate and key files for ``hosts`` (names or IP addresses): kept while they still
    name every host, made again when one is missing (the laptop got a new address) or expired."""
    cert_path, key_path = folder / "seqcam-cert.pem", folder / "seqcam-key.pem"
    if cert_path.exists() and key_path.exists() and still_good(cert_path, hosts):
        return cert_path, key_path
    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "seqcam on this laptop")])
    now = datetime.datetime.now(datetime.timezone.utc)
    names = [general_name(host) for host in dict.fromkeys(hosts)]
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def general_name(host: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def still_good(cert_path: Path, hosts: list[str]) -> bool:
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    named = set(cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value)
    fresh = cert.not_valid_after_utc > datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    return fresh and all(general_name(host) in named for host in hosts)
