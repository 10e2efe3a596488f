"""Installs the utq kernelspec: python -m utq_kernel.install [--sys-prefix | --user | --prefix P] [--utq PATH]."""

import argparse
import json
import os
import shutil
import sys
import tempfile

from jupyter_client.kernelspec import KernelSpecManager


def spec(utq):
    kernel = {
        "argv": [sys.executable, "-m", "utq_kernel", "-f", "{connection_file}"],
        "display_name": "utq",
        "language": "utq",
        # Jupyter interrupts with SIGINT, which the kernel passes on to utq.
        "interrupt_mode": "signal",
    }
    if utq:
        kernel["env"] = {"UTQ_BINARY": os.path.abspath(utq)}
    return kernel


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m utq_kernel.install", description=__doc__)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--sys-prefix", action="store_true", help="into this Python environment (the default in a venv)")
    where.add_argument("--user", action="store_true", help="into your own Jupyter folder")
    where.add_argument("--prefix", help="into PREFIX/share/jupyter/kernels")
    parser.add_argument("--utq", help="the utq binary to run (default: utq on PATH, or $UTQ_BINARY)")
    args = parser.parse_args(argv)
    utq = args.utq or os.environ.get("UTQ_BINARY") or shutil.which("utq")
    if not utq:
        parser.error("utq is not on PATH: install it first (make install) or name it with --utq")
    prefix = args.prefix
    if args.sys_prefix or (not args.user and not prefix and sys.prefix != sys.base_prefix):
        prefix = sys.prefix
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "kernel.json"), "w") as f:
            json.dump(spec(args.utq or os.environ.get("UTQ_BINARY")), f, indent=1)
        path = KernelSpecManager().install_kernel_spec(folder, "utq", user=args.user, prefix=prefix)
    print(f"installed the utq kernel in {path} (utq: {utq})")


if __name__ == "__main__":
    main()
