"""The reader hub: its line protocol, the Pi-side serial link, and its typed snapshots."""
