// Module StorefrontTestSupport.
