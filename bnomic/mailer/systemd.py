"""What systemd hands a service and wants back: sd_notify and socket activation.
(Ten lines of protocol: no library needed.)"""
from __future__ import annotations

import os
import socket

SD_LISTEN_FDS_START = 3


def notify(state: str) -> bool:
    """Send READY=1, WATCHDOG=1, STOPPING=1, STATUS=... to systemd, if it listens."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.connect(address)
            s.sendall(state.encode())
        return True
    except OSError:
        return False


def listen_fds() -> list[int]:
    """The sockets passed by socket activation (LISTEN_FDS), if they are ours."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()):
        return []
    count = int(os.environ.get("LISTEN_FDS", "0") or 0)
    return list(range(SD_LISTEN_FDS_START, SD_LISTEN_FDS_START + count))


def watchdog_interval() -> float | None:
    """Half the watchdog timeout systemd set, in seconds; None without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or os.environ.get("WATCHDOG_PID", str(os.getpid())) != str(os.getpid()):
        return None
    return int(usec) / 2_000_000
