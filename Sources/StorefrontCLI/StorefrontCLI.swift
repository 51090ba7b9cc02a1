// Module StorefrontCLI.
