#!/bin/sh
# Installs this unpacked utq's Jupyter kernel into the active Python environment (a virtual
# environment, conda) or, outside one, for this user; JupyterLab too when it is missing.
# The kernel runs bin/utq from this folder, so keep the folder where it is. Needs python3.
set -e
here=$(cd "$(dirname "$0")" && pwd)
python3 -c "import sys" 2>/dev/null || { echo "install.sh needs python3"; exit 1; }
where=$(python3 -c 'import sys; print("--sys-prefix" if sys.prefix != sys.base_prefix else "--user")')
user=""; [ "$where" = "--user" ] && user="--user"
python3 -c "import jupyterlab" 2>/dev/null || python3 -m pip install -q $user jupyterlab
python3 -m pip install -q $user "$here/jupyter"
python3 -m utq_kernel.install --utq "$here/bin/utq" $where
echo "utq: the kernel is installed; jupyter lab offers it. $here/bin/utq runs in a terminal;"
echo "notebooks anywhere find the shipped data (load datasets/market.json) in $here/share/utq."
