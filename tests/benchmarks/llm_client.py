"""The LLM client's CPU per call with many calls in flight: ``python -m tests.benchmarks.llm_client [--in-flight 48]
[--calls 20] [--latency-ms 200] [--transport aiohttp|httpx]``.

``--in-flight`` threads each make ``--calls`` parser calls one after the other through the project's
client (:func:`genie_bot.llm.make_client`) to the load test's scripted server (its own process,
answering after ``--latency-ms``, keeping connections alive), with a parser-sized prompt. Reported:
this process's CPU time per call (all threads). ``--transport httpx`` puts the ``openai`` package's
default httpx client in the place of the process's aiohttp one, for comparison
(:mod:`genie_bot.llm.transport` says why aiohttp).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from genie_bot.llm import LLMSettings, make_client
from genie_bot.llm import transport

PROMPT = [{"role": "system", "content": "You are the semantic parser " + "of a ticket agent. " * 400},
          {"role": "user", "content": "I need help with joining a waitlist"}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--in-flight", type=int, default=48)
    parser.add_argument("--calls", type=int, default=20, help="calls per thread")
    parser.add_argument("--latency-ms", type=float, default=200)
    parser.add_argument("--transport", choices=("aiohttp", "httpx"), default="aiohttp")
    args = parser.parse_args()
    if args.transport == "httpx":
        transport._LoopThread._http = transport.openai.DefaultAsyncHttpxClient()
    server = subprocess.Popen([sys.executable, "-m", "tests.benchmarks.loadtest_llm", str(args.latency_ms)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        client = make_client(LLMSettings(base_url=server.stdout.readline().strip(), api_key="sk-bench"))
        client.complete("parser", PROMPT)  # imports and the first connection
        started, wall = time.process_time(), time.perf_counter()
        with ThreadPoolExecutor(args.in_flight) as pool:
            list(pool.map(lambda _: [client.complete("parser", PROMPT) for _ in range(args.calls)],
                          range(args.in_flight)))
        calls = args.in_flight * args.calls
        print(f"{args.transport}: {calls} calls, {args.in_flight} in flight: "
              f"{(time.process_time() - started) * 1000 / calls:.2f} ms of CPU per call "
              f"({calls / (time.perf_counter() - wall):.0f} calls/s)")
    finally:
        server.stdin.close()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
