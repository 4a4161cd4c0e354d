/**
 * node:http's `request`, taken from the built-in module itself rather than imported: an ES
 * module's import of node:http makes Node read every export of it, and reading its WebSocket
 * loads undici, about 25-40 ms of every start for a client the server never uses
 * (docs/decisions/186-what-a-start-leaves-for-later.md). node:https has no such export.
 */
export const httpRequest = process.getBuiltinModule('node:http').request;
