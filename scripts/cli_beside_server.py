#!/usr/bin/env python3
"""CLI searches beside a busy server: how long a search in another process takes while a
`serve` on the same home takes adds one after another, without a break.

Imports 1,000 facts into a fresh home, starts `serve`, keeps one client adding, and times
40 whole `ash-memory search` processes beside it; prints their p50 and p90 and how many
adds the server made meanwhile. Give two binaries to compare builds in one run.

    cargo build --release -p ash-memory-cli
    scripts/cli_beside_server.py target/release/ash-memory [OTHER_BINARY] --embedder static
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time


def measure(exe: str, embedder: str, searches: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        with open(os.path.join(home, "config.toml"), "w") as f:
            f.write(f'[embedder]\nprovider = "{embedder}"\n')
        facts = os.path.join(tmp, "facts.txt")
        with open(facts, "w") as f:
            for i in range(1000):
                f.write(f"Fact number {i} about topic {i % 37} and place {i % 11}\n")
        subprocess.run([exe, "--home", home, "--user", "u", "import", facts], check=True, capture_output=True)
        sock = os.path.join(home, "serve.sock")
        server = subprocess.Popen([exe, "--home", home, "serve", "--socket", sock], stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 30
            while not os.path.exists(sock):
                if time.time() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)
            stop = threading.Event()
            adds = [0]

            def writer() -> None:
                conn = socket.socket(socket.AF_UNIX)
                conn.connect(sock)
                stream = conn.makefile("rwb")
                while not stop.is_set():
                    adds[0] += 1
                    request = {
                        "jsonrpc": "2.0",
                        "id": adds[0],
                        "method": "memory.add",
                        "params": {"content": f"Server note {adds[0]} about birds", "user_id": "w"},
                    }
                    stream.write((json.dumps(request) + "\n").encode())
                    stream.flush()
                    stream.readline()

            thread = threading.Thread(target=writer)
            thread.start()
            time.sleep(1)
            times = []
            for q in range(searches):
                start = time.time()
                subprocess.run(
                    [exe, "--home", home, "--user", "u", "search", f"topic {q}"], check=True, capture_output=True
                )
                times.append((time.time() - start) * 1000)
            stop.set()
            thread.join()
        finally:
            server.terminate()
            server.wait()
    times.sort()
    p50, p90 = times[len(times) // 2], times[len(times) * 9 // 10]
    return f"{exe} ({embedder}): CLI search beside adds p50 {p50:.1f} ms, p90 {p90:.1f} ms; server adds {adds[0]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--embedder", default="transformer", choices=["static", "transformer"])
    parser.add_argument("--searches", type=int, default=40)
    args = parser.parse_args()
    if not all(shutil.which(b) or os.path.exists(b) for b in args.binaries):
        raise SystemExit("a binary is missing")
    for exe in args.binaries:
        print(measure(exe, args.embedder, args.searches), flush=True)


if __name__ == "__main__":
    main()
