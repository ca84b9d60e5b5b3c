"""A Celery app on the embedded default's file-system broker alone (no Django, no
database), for the broker's stress test: its one task appends its label to a file.

    python -m tests.integration.broker_app send FIRST COUNT   # sends COUNT tasks
    celery -A tests.integration.broker_app worker ...          # consumes them

The folder comes from ARBITER_BROKER_TEST_FOLDER; ARBITER_BROKER_TEST_TRANSPORT names
the transport (the project's by default; kombu's own to see the race it closes)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from celery import Celery

FOLDER = Path(os.environ["ARBITER_BROKER_TEST_FOLDER"])
DONE = FOLDER / "done.txt"

app = Celery("broker_test")
app.conf.update(
    broker_url="filesystem://",
    broker_transport=os.environ.get("ARBITER_BROKER_TEST_TRANSPORT", "arbiter.broker:Transport"),
    broker_transport_options={
        "data_folder_in": str(FOLDER / "queue"),
        "data_folder_out": str(FOLDER / "queue"),
        "processed_folder": str(FOLDER / "processed"),
        "control_folder": str(FOLDER / "control"),
        "store_processed": False,
        "polling_interval": 0.01,
    },
    result_backend=None,
    task_acks_late=True,
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
)


@app.task(name="broker_test.record")
def record(label: str) -> None:
    # One short line a write with O_APPEND: the lines of the pool's children never mix.
    with open(DONE, "a", encoding="ascii") as f:
        f.write(f"{label}\n")


def send(first: int, count: int) -> None:
    for n in range(first, first + count):
        record.delay(str(n))


if __name__ == "__main__":
    if sys.argv[1:2] != ["send"] or len(sys.argv) != 4:
        raise SystemExit("usage: python -m tests.integration.broker_app send FIRST COUNT")
    send(int(sys.argv[2]), int(sys.argv[3]))
