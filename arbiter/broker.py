"""The embedded default's Celery broker: kombu's file-system transport, made safe for the
several processes of one laptop (the web server's, the worker's, the commands').

kombu's own transport writes a message in place (the file is created, then locked and
written) and takes one by moving it away and reading it: a worker that lists the folder
between the creation and the write reads an empty or partial file, and its JSON error
ends the worker (kombu issue 1551). Here a message is written under a name the readers
skip, then renamed to its queue name in one step (``os.replace``: a reader sees the whole
file or nothing); a reader claims it by renaming it into the processed folder, on the
same file system (one reader wins; the others find it gone); and a file that still cannot
be read (a disk full, a hand edit) is logged and set aside instead of stopping the
worker. The exchanges' tables (broadcasts) are rewritten the same way."""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

#: Where unreadable messages are set aside, in the processed folder.
DAMAGED = "damaged"


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``path`` so that no reader ever sees it partly written."""
    part = path.with_name(f".{path.name}.{uuid.uuid4().hex}.part")
    with open(part, "wb") as f:
        f.write(data)
    os.replace(part, path)


#: kombu's file-system channel, whose stubs lack most of what is overridden here.
_FileSystemChannel: Any = filesystem.Channel
_fs: Any = filesystem


class Channel(_FileSystemChannel):  # type: ignore[misc]
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        """Put a message on ``queue``: written aside, then renamed into the queue."""
        # The name kombu gives (milliseconds of the system's monotonic clock first, so that
        # the folder sorts in sending order), and a name the readers skip meanwhile.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        try:
            _write_whole(Path(self.data_folder_out) / name, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add message {name!r} to {self.data_folder_out}") from exc

    def _get(self, queue: str) -> Any:
        """The oldest whole message of ``queue``; raises Empty when there is none."""
        wanted = f"{queue}.msg"
        claimed_in = Path(self.processed_folder)
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue  # another queue's, or one being written (".name.part")
            claimed = claimed_in / name
            try:
                # Atomic on one file system: of several readers exactly one gets it.
                os.rename(Path(self.data_folder_in) / name, claimed)
            except FileNotFoundError:
                continue  # another reader took it
            except OSError as exc:
                raise ChannelError(f"Cannot take message {name!r} from the queue") from exc
            try:
                payload = claimed.read_bytes()
                message = loads(bytes_to_str(payload))
            except (OSError, ValueError) as exc:
                self._set_aside(claimed, exc)
                continue
            if not self.store_processed:
                claimed.unlink(missing_ok=True)
            return message
        raise Empty()

    def _set_aside(self, claimed: Path, exc: Exception) -> None:
        damaged = claimed.parent / DAMAGED
        damaged.mkdir(exist_ok=True)
        try:
            os.replace(claimed, damaged / claimed.name)
        except OSError:
            claimed.unlink(missing_ok=True)
        logger.error(
            "skipped an unreadable broker message %s (%s): set aside in %s", claimed.name, exc, damaged
        )

    def get_table(self, exchange: str) -> list[Any]:
        file = self._exchange_file(exchange)
        try:
            table = loads(bytes_to_str(file.read_bytes()))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            raise ChannelError(f"Cannot read {file}") from exc
        return [_fs.exchange_queue_t(*q) for q in table]

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str, queue: str) -> None:
        self.control_folder.mkdir(exist_ok=True)
        entry = _fs.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(exchange, lambda queues: queues if entry in queues else [entry, *queues])

    def _delete(
        self, queue: str, exchange: str, routing_key: str, pattern: str, *args: Any, **kwargs: Any
    ) -> None:
        # The virtual channel's part (kombu's file-system _delete does the same first).
        super(_FileSystemChannel, self)._delete(queue, exchange, routing_key, pattern, *args, **kwargs)
        if not self._exchange_file(exchange).exists():
            return
        entry = _fs.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(exchange, lambda queues: [q for q in queues if q != entry])

    def _change_table(self, exchange: str, change: Callable[[list[Any]], list[Any]]) -> None:
        """Rewrite an exchange's table whole, one writer at a time (a lock file beside it);
        readers read it without a lock, since it is only ever replaced whole."""
        file = self._exchange_file(exchange)
        with open(file.with_name(f".{file.name}.lock"), "wb") as lock:
            _fs.lock(lock, _fs.LOCK_EX)
            try:
                queues = self.get_table(exchange)
                changed = change(queues)
                if changed != queues:
                    _write_whole(file, str_to_bytes(dumps(changed)))
            finally:
                _fs.unlock(lock)


class Transport(filesystem.Transport):
    Channel = Channel


#: The broker URL's scheme for this transport (``arbiterfs://``, the embedded default's).
SCHEME = "arbiterfs"
TRANSPORT_ALIASES[SCHEME] = "arbiter.broker:Transport"
