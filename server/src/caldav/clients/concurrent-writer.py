"""A calendar app that keeps editing to-dos while others do too, run by
server/src/todos/concurrent-writes.test.ts: Debian's python3-caldav GETs a VTODO with its ETag,
changes a random subset of SUMMARY and DESCRIPTION through the library's icalendar object, and
PUTs it with If-Match, as a careful app does. One process for every write (a process a write
would take seconds each on a busy machine).

Usage: concurrent-writer.py URL USERNAME PASSWORD SEED WRITES OBJECT-URL...
Prints one JSON line a write: the object, the fields it set, the ETag it started from, the
answer's status and ETag.
"""

import json
import random
import sys

import caldav


def main():
    url, username, password, seed, writes = sys.argv[1:6]
    objects = sys.argv[6:]
    client = caldav.DAVClient(url=url, username=username, password=password)
    pick = random.Random(int(seed))
    for n in range(int(writes)):
        target = pick.choice(objects)
        read = client.request(target, "GET")
        if read.status != 200:
            raise SystemExit(f"GET {target} answered {read.status}")
        etag = read.headers.get("ETag")
        todo = caldav.Todo(client=client, url=target, data=read.raw)
        component = todo.icalendar_component
        values = {}
        change_title = pick.random() < 0.6
        if change_title:
            values["title"] = f"dav title {n}"
            component.pop("SUMMARY", None)
            component.add("SUMMARY", values["title"])
        if not change_title or pick.random() < 0.4:
            values["description"] = f"dav notes {n}"
            component.pop("DESCRIPTION", None)
            component.add("DESCRIPTION", values["description"])
        answer = client.request(
            target,
            "PUT",
            todo.data,
            {"If-Match": etag, "Content-Type": "text/calendar; charset=utf-8"},
        )
        line = {
            "url": target,
            "values": values,
            "etag": etag,
            "status": answer.status,
            "answerEtag": answer.headers.get("ETag"),
        }
        print(json.dumps(line), flush=True)


main()
