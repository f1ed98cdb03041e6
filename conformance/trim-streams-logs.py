#!/usr/bin/env python3
"""Keeps a Kafka Streams run of run-streams.sh as test data: copies WORKDIR's logs and
ground-truth.json to tests/fixtures/real-kafka-logs/NAME/, dropping whole records (a
timestamped line and its continuation lines) of loggers and statements that say nothing about
the group (metadata warnings, offset resets, commit and processing summaries, config dumps).
Kept lines are unedited.

usage: trim-streams-logs.py WORKDIR NAME
"""
import json
import os
import re
import shutil
import sys

DROP_LOGGERS = (
    "org.apache.kafka.clients.NetworkClient",
    "org.apache.kafka.clients.consumer.internals.SubscriptionState",
    "org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils",
    "org.apache.kafka.clients.consumer.internals.ClassicKafkaConsumer",
    "org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer",
    "org.apache.kafka.streams.StreamsConfig",
    "org.apache.kafka.clients.consumer.ConsumerConfig",
    "org.apache.kafka.clients.producer.ProducerConfig",
    "org.apache.kafka.clients.admin.AdminClientConfig",
    "org.apache.kafka.streams.state.internals.RocksDBTimestampedStore",
    "org.apache.kafka.common.utils.AppInfoParser",
)
DROP_TEXT = (
    "Processed ", "Committed ", "Found no committed offset", "Setting offset for partition",
    "Processing exception handler is not enabled", "Using an OS temp directory",
    "Requesting the log end offset", "Not requesting the log end offset",
)
STAMP = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] ")


def records(lines):
    cur = []
    for line in lines:
        if STAMP.match(line) and cur:
            yield cur
            cur = []
        cur.append(line)
    if cur:
        yield cur


def keep(rec):
    text = "".join(rec)
    last = rec[-1].rstrip("\n")
    m = re.search(r"\(([\w.$]+)\)$", last)
    if m and m.group(1).startswith(DROP_LOGGERS):
        return False
    if m and m.group(1).startswith("org.apache.kafka.coordinator.common.runtime.MultiThreadedEventProcessor"):
        return False
    return not any(t in text for t in DROP_TEXT)


def main():
    work, name = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.join(root, "tests", "fixtures", "real-kafka-logs", name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for f in sorted(os.listdir(work)):
        if not f.endswith(".log"):
            continue
        with open(os.path.join(work, f), encoding="utf-8", errors="replace") as src:
            kept = [line for rec in records(src) if keep(rec) for line in rec]
        with open(os.path.join(out, f), "w", encoding="utf-8") as dst:
            dst.writelines(kept)
        print(f"{f}: {len(kept)} lines kept")
    with open(os.path.join(work, "ground-truth.json"), encoding="utf-8") as src:
        truth = json.load(src)
    with open(os.path.join(out, "ground-truth.json"), "w", encoding="utf-8") as dst:
        json.dump(truth, dst, indent=1)


if __name__ == "__main__":
    main()
