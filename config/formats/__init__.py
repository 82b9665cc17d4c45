"""Format overrides by locale (FORMAT_MODULE_PATH): only what differs from Django's own."""
