"""One step of a real CalDAV client (Debian's python3-caldav), run by clients.test.ts.

Usage: caldav-client.py URL USERNAME PASSWORD COMMAND [JSON-ARGUMENT]; prints the answer as JSON.
Only the library's own calls are used, as an app built on it would.
"""

import json
import sys

import caldav
from caldav.lib import error


def calendar_named(principal, name):
    for calendar in principal.calendars():
        if calendar.name == name:
            return calendar
    raise SystemExit(f"no calendar named {name}")


def main():
    url, username, password, command = sys.argv[1:5]
    argument = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
    client = caldav.DAVClient(url=url, username=username, password=password)
    principal = client.principal()

    if command == "discover":
        return {
            "principal": str(principal.url),
            "calendars": [
                {"url": str(c.url), "name": c.name} for c in principal.calendars()
            ],
        }
    if command == "make-calendar":
        made = principal.make_calendar(
            name=argument["name"], supported_calendar_component_set=["VTODO"]
        )
        return {"url": str(made.url)}

    if command == "put-if-match":
        answer = client.request(
            argument["url"],
            "PUT",
            argument["ical"],
            {"If-Match": argument["etag"], "Content-Type": "text/calendar"},
        )
        return {"status": answer.status}

    calendar = calendar_named(principal, argument["calendar"])
    if command == "save":
        saved = calendar.save_todo(argument["ical"])
        return {"url": str(saved.url)}
    if command == "list":
        todos = calendar.todos(include_completed=argument.get("completed", True))
        return [{"url": str(t.url), "data": t.data} for t in todos]
    if command == "open":
        return [t.instance.vtodo.uid.value for t in calendar.todos()]
    if command == "get":
        return {"data": calendar.todo_by_uid(argument["uid"]).data}
    if command == "complete":
        calendar.todo_by_uid(argument["uid"]).complete()
        return {}
    if command == "delete":
        calendar.todo_by_uid(argument["uid"]).delete()
        return {}
    if command == "etag":
        todo = calendar.todo_by_uid(argument["uid"])
        answer = client.request(str(todo.url), "GET")
        return {"url": str(todo.url), "etag": answer.headers.get("ETag"), "data": todo.data}
    if command == "sync":
        found = calendar.objects_by_sync_token(argument.get("token"))
        changed, deleted = [], []
        for item in found:
            try:
                item.load()
                changed.append(str(item.url))
            except error.NotFoundError:
                deleted.append(str(item.url))
        return {"token": found.sync_token, "changed": changed, "deleted": deleted}
    raise SystemExit(f"unknown command {command}")


print(json.dumps(main()))
