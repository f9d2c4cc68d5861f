"""tf.data service entry points that load tfgpuaug's ops, so a dispatcher and workers can
run tfgpuaug pipelines for clients (TensorFlow's own distributed data processing).

    python -m tfgpuaug.service dispatcher --port 5050 [--work_dir DIR]
    python -m tfgpuaug.service worker --dispatcher localhost:5050 --port 5051
    # client:
    ds = ds.apply(tf.data.experimental.service.distribute(
        "distributed_epoch", "grpc://localhost:5050"))

Workers must `import tfgpuaug` (this module does) and see the files the pipeline reads.
Both servers listen on every interface: TensorFlow's tf.data service has no bind-address
setting, so keep the ports behind a firewall on shared networks.
"""
from __future__ import annotations

from typing import Optional, Sequence

import tensorflow as tf
from absl import app, flags, logging

import tfgpuaug  # noqa: F401  (registers the ops in this process)

_PORT = flags.DEFINE_integer("port", 0, "Port to serve on (0 picks a free one).")
_DISPATCHER = flags.DEFINE_string("dispatcher", None, "Worker: the dispatcher's host:port.")
_WORKER_ADDRESS = flags.DEFINE_string("worker_address", None,
                                      "Worker: address clients use to reach it (default localhost:port).")
_WORK_DIR = flags.DEFINE_string("work_dir", None, "Dispatcher: directory for fault-tolerant state.")


def start_dispatcher(port: int = 0, work_dir: Optional[str] = None) -> tf.data.experimental.service.DispatchServer:
    config = tf.data.experimental.service.DispatcherConfig(
        port=port, work_dir=work_dir, fault_tolerant_mode=work_dir is not None)
    return tf.data.experimental.service.DispatchServer(config)


def start_worker(dispatcher: str, port: int = 0,
                 worker_address: Optional[str] = None) -> tf.data.experimental.service.WorkerServer:
    config = tf.data.experimental.service.WorkerConfig(
        dispatcher_address=dispatcher, port=port, worker_address=worker_address)
    return tf.data.experimental.service.WorkerServer(config)


def main(argv: Sequence[str]) -> None:
    if len(argv) != 2 or argv[1] not in ("dispatcher", "worker"):
        raise app.UsageError("usage: python -m tfgpuaug.service dispatcher|worker [flags]")
    if argv[1] == "dispatcher":
        server = start_dispatcher(_PORT.value, _WORK_DIR.value)
        logging.info("tfgpuaug tf.data dispatcher at %s", server.target)
        print(f"dispatcher {server.target} (listening on every interface: firewall port "
              f"{server.target.rsplit(':', 1)[-1]} on shared networks)", flush=True)
    else:
        if not _DISPATCHER.value:
            raise app.UsageError("worker needs --dispatcher host:port")
        server = start_worker(_DISPATCHER.value, _PORT.value, _WORKER_ADDRESS.value)
        print(f"worker {_WORKER_ADDRESS.value or server._address} -> {_DISPATCHER.value} (listening on every "
              "interface)", flush=True)
    server.join()


if __name__ == "__main__":
    app.run(main)
