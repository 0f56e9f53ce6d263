"""Building and running bnomic's Containerfile with podman, from Debian's
archive alone (Docker Hub may be out of reach): the base image is a Debian 12
root filesystem made by mmdebstrap, cached under /var/cache/bnomic-test, and
imported into podman once.

Two settings make podman work inside a container such as CI's: no default
ulimits (raising RLIMIT_NOFILE needs CAP_SYS_RESOURCE), and runc rather than
crun where the cgroups are the hybrid v1/v2 kind that crun refuses."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("BNOMIC_CONTAINER_CACHE", "/var/cache/bnomic-test"))
BASE = "localhost/bnomic-base:bookworm"
ROOTFS = CACHE / "rootfs-bookworm.tar"


def missing() -> str | None:
    """Why the container test cannot run here, or None."""
    if os.geteuid() != 0:
        return "building the image needs root (rootful podman, mmdebstrap)"
    for tool, package in (("podman", "podman"), ("mmdebstrap", "mmdebstrap")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {package})"
    return None


class Podman:
    def __init__(self, folder: Path):
        self.conf = folder / "containers.conf"
        self.conf.write_text("[containers]\ndefault_ulimits = []\n")
        self.env = dict(os.environ, CONTAINERS_CONF=str(self.conf))
        self.runtime = ["--runtime", "runc"] if shutil.which("runc") else []

    def __call__(self, *args, check=True, timeout=600) -> subprocess.CompletedProcess:
        run = subprocess.run(["podman", *self.runtime, *args], env=self.env, capture_output=True,
                             text=True, timeout=timeout)
        if check and run.returncode != 0:
            raise RuntimeError(f"podman {' '.join(args)} failed ({run.returncode}): "
                               f"{run.stderr[-3000:]}")
        return run

    def base_image(self) -> str:
        """Debian 12 with Python, from the Debian archive, built once and cached."""
        if self("image", "exists", BASE, check=False).returncode == 0:
            return BASE
        if not ROOTFS.exists():
            CACHE.mkdir(parents=True, exist_ok=True)
            partial = ROOTFS.with_suffix(".partial")
            # (--format=tar: mmdebstrap takes the format from the name's ending, and
            # ".partial" would make a directory, which podman import cannot read)
            subprocess.run(["mmdebstrap", "--quiet", "--variant=minbase", "--format=tar",
                            "--include=python3,python3-venv,ca-certificates", "bookworm",
                            str(partial)], check=True, capture_output=True, timeout=1200)
            partial.rename(ROOTFS)
        self("import", str(ROOTFS), BASE)
        return BASE

    def build(self, context: Path, tag: str) -> None:
        """The project's Containerfile, with wheels built on this machine."""
        (context / "docs").mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "Containerfile", context / "Containerfile")
        shutil.copy(ROOT / ".containerignore", context / ".containerignore")
        shutil.copy(ROOT / "docs" / "operators.md", context / "docs" / "operators.md")
        subprocess.run([os.path.join(os.path.dirname(os.sys.executable), "pip"), "wheel", "--quiet",
                        "--wheel-dir", str(context / "wheels"), str(ROOT)],
                       check=True, capture_output=True, timeout=600)
        self("build", "--network=host", "--build-arg", f"BASE={self.base_image()}",
             "-t", tag, str(context), timeout=1200)
