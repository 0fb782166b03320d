from seqcam.cli import main

raise SystemExit(main())
