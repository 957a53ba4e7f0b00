"""The web companion: the table live on any phone or TV of the home network, past games,
settings and (with `--sim`) a simulated table played by hand. A separate process
(`setup-companion web`) that talks to the daemon only over its local socket
(`companion.daemon.publish`); see docs/web.md."""
