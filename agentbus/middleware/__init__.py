"""Built-in middleware, one module each. Import the module you need."""
