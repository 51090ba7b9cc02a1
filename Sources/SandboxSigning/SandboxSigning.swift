// Module SandboxSigning.
