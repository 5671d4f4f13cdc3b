"""The validator: plays roll-and-write sheets with random dice under the real rules."""
