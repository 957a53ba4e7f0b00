"""The names and addresses the table answers to (the Host header), without a server."""

from __future__ import annotations

import pytest

from companion.web.edge import TableNames

NAMES = TableNames(frozenset({"setup", "setup.local", "localhost", "scores.lan"}), "setup.local")


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("setup.local", "192.168.1.20"),
        ("SETUP.local.:80", "192.168.1.20"),  # any case, a final dot, a port
        ("setup", "192.168.1.20"),
        ("scores.lan:8080", "192.168.1.20"),  # a name the config adds
        ("192.168.1.20", "192.168.1.20"),  # the address the request came in on
        ("192.168.1.20:80", "::ffff:192.168.1.20"),  # IPv4 on a dual-stack socket
        ("[fd00::20]:80", "fd00::20"),
        ("127.0.0.1:8080", "127.0.0.1"),
        ("[::1]", "::1"),
    ],
)
def test_the_tables_own_names_and_addresses_are_answered(host, local):
    assert NAMES.allows(host, local)


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("evil.example", "192.168.1.20"),  # DNS rebinding: a foreign name
        ("setup.evil.example", "192.168.1.20"),
        ("setup.local.evil.example", "192.168.1.20"),
        ("192.168.1.21", "192.168.1.20"),  # another machine's address
        ("[fd00::21]", "fd00::20"),
        ("", "192.168.1.20"),
        ("[::1", "::1"),
        ("192.168.1.20", None),
    ],
)
def test_any_other_name_or_address_is_not(host, local):
    assert not NAMES.allows(host, local)


def test_this_machine_answers_to_its_host_name_and_its_local_name():
    names = TableNames.of_this_machine(["Scores.lan."])
    assert "localhost" in names.names and "scores.lan" in names.names
    assert names.shown.endswith(".local") and names.shown in names.names


def test_the_config_adds_names_and_refuses_what_is_not_one(tmp_path):
    from companion.config import ConfigError, load_config

    path = tmp_path / "config.toml"
    path.write_text('[web]\nnames = ["scores.lan", "Setup.fritz.box"]\n')
    assert load_config(path).web.names == ("scores.lan", "Setup.fritz.box")
    path.write_text('[web]\nnames = ["scores.lan", "http://x/"]\n')
    with pytest.raises(ConfigError, match="line 2: web.names must list host names"):
        load_config(path)
