"""Run a notebook headless, as `jupyter nbconvert --to notebook --execute` does, and keep the
outputs the Deno kernel sends after its idle status.

The Deno kernel (2.x) may publish a cell's result or display after the `status: idle` that ends the
cell on IOPub (seen on a loaded machine: idle, then execute_result, a millisecond apart). nbclient
stops reading a cell's messages at idle, so nbconvert drops that output and the cell looks empty.
This runner is nbclient with one change: after idle it goes on reading the cell's messages until
none has come for GRACE seconds.

    /usr/bin/python3 scripts/run_notebook.py examples/quickstart.ipynb /tmp/quickstart.out.ipynb
"""

import os
import sys
from queue import Empty

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionComplete
from nbclient.util import ensure_async

GRACE = 0.5  # seconds of quiet after idle before the next cell runs


class LateOutputClient(NotebookClient):
    late = 0  # messages of a cell that came after its idle

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        await super()._async_poll_output_msg(parent_msg_id, cell, cell_index)
        while True:
            try:
                msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=GRACE))
            except Empty:
                return
            if msg["parent_header"].get("msg_id") == parent_msg_id:
                self.late += 1
                try:
                    self.process_message(msg, cell, cell_index)
                except CellExecutionComplete:
                    pass


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: run_notebook.py <notebook.ipynb> <executed.ipynb>")
    source, target = sys.argv[1], sys.argv[2]
    nb = nbformat.read(source, as_version=4)
    folder = os.path.dirname(os.path.abspath(source))
    client = LateOutputClient(nb, timeout=120, resources={"metadata": {"path": folder}})
    client.execute()
    nbformat.write(nb, target)
    print(f"run_notebook: {source} run ({client.late} messages after idle kept), wrote {target}")


if __name__ == "__main__":
    main()
