import type { DOMParser, Element } from '@xmldom/xmldom';
import { AppError, badRequest } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';

let loadedDomParser: typeof DOMParser | undefined;
/**
 * xmldom, loaded at the first CalDAV request (caldav/auth.ts awaits this before it reads any
 * body), not at start: most requests never need it (docs/decisions/097-modules-on-first-use.md).
 */
export const loadXmldom = onFirstUse(async () => {
  // Through `default` (module.exports): xmldom is CommonJS, and the production bundle's chunk of
  // it has no named exports, only Node's own import has (scripts/bundle-server.mjs).
  loadedDomParser = (await import('@xmldom/xmldom')).default.DOMParser;
  return loadedDomParser;
});

/**
 * WebDAV's XML, read and written with @xmldom/xmldom (docs/decisions/085-caldav.md): requests are
 * parsed namespace-aware, so `<D:prop xmlns:D="DAV:">`, `<prop xmlns="DAV:">` and any other
 * prefix mean the same. Answers are written as text by one writer that escapes every text and
 * attribute value (escapeText, escapeAttribute).
 * xmldom resolves no external entities (no XXE); a document type declaration is refused anyway.
 */

export const NS = {
  dav: 'DAV:',
  caldav: 'urn:ietf:params:xml:ns:caldav',
  cs: 'http://calendarserver.org/ns/',
  apple: 'http://apple.com/ns/ical/',
} as const;

/**
 * The prefixes answers use for the namespaces Tally speaks; another gets `x`, declared on its
 * element. A Map, not an object: a client's namespace may be any string, `constructor` too.
 */
const PREFIXES = new Map<string, string>([
  [NS.dav, 'd'],
  [NS.caldav, 'c'],
  [NS.cs, 'cs'],
  [NS.apple, 'ic'],
]);

/** A property or element name: its namespace and local name. */
export interface XmlName {
  ns: string;
  name: string;
}

export const nameKey = ({ ns, name }: XmlName) => `{${ns}}${name}`;

/**
 * Parses a request body; a body that is not well-formed XML is a 400, and so is one with a
 * document type declaration, as the parser read it: `<!DOCTYPE` inside a CDATA section or a
 * comment is text, not a declaration.
 */
export function parseXml(text: string): Element {
  let problem = false;
  let root: Element | null = null;
  let doctype = false;
  if (loadedDomParser === undefined) throw new Error('xmldom is used before loadXmldom() resolved');
  try {
    const document = new loadedDomParser({
      onError: (level) => {
        if (level !== 'warning') problem = true;
      },
    }).parseFromString(text, 'text/xml');
    doctype = document.doctype !== null;
    root = document.documentElement;
  } catch {
    // xmldom throws a ParseError on a fatal error (an unclosed element, …).
    problem = true;
  }
  if (doctype) throw badRequest('body: XML document type declarations are not accepted');
  if (problem || !root) throw badRequest('body: not well-formed XML');
  return root;
}

/** Whether the element is `name` in namespace `ns`. */
export const isElement = (element: Element, ns: string, name: string) =>
  element.namespaceURI === ns && element.localName === name;

/** The element children of an element, in order. */
export function childElements(element: Element): Element[] {
  const children: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) children.push(node as Element);
  }
  return children;
}

export const firstChild = (element: Element, ns: string, name: string) =>
  childElements(element).find((child) => isElement(child, ns, name));

/** The element's text content, trimmed. */
export const textOf = (element: Element) => (element.textContent ?? '').trim();

export const nameOf = (element: Element): XmlName => ({
  ns: element.namespaceURI ?? '',
  name: element.localName ?? element.nodeName,
});

/** An element of an answer: attributes and children, text or elements. */
export interface XmlNode {
  ns: string;
  name: string;
  attributes?: Record<string, string>;
  children?: readonly (XmlNode | string)[];
}

export const el = (ns: string, name: string, ...children: (XmlNode | string)[]): XmlNode => ({
  ns,
  name,
  children,
});

export const dav = (name: string, ...children: (XmlNode | string)[]) =>
  el(NS.dav, name, ...children);

/**
 * A request failing a DAV precondition (RFC 4918, 16; RFC 4791, 5.3.2.1): caldav/routes.ts
 * answers it with an <error> naming the condition, which clients read, instead of the JSON
 * sentence of the API's refusals. `resource`: the name, in the request's calendar, of the
 * resource the condition is about (a no-uid-conflict names the holder of the UID).
 */
export class DavPrecondition extends AppError {
  constructor(
    statusCode: number,
    message: string,
    readonly condition: XmlName,
    readonly resource?: string,
  ) {
    super(statusCode, message);
  }
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\u0085': '&#x85;',
  '\u2028': '&#x2028;',
  '\u2029': '&#x2029;',
};
const escapeOne = (char: string) => escapes[char] ?? char;

/**
 * Text content as XML: `&` and `<` would start markup, `>` would end a CDATA section. Line ends
 * stay as they are (as xmldom's serialiser wrote them), but a CR that ends no line, NEL and the
 * Unicode line and paragraph separators are written as references: a parser reads them as a
 * line feed (xmldom does, as XML 1.1 says), and a calendar object's text value holding one
 * (ical.js writes it as it is) would then end its content line early.
 */
export const escapeText = (text: string) =>
  text.replace(/[&<>\u0085\u2028\u2029]|\r(?!\n)/g, escapeOne);

/** An attribute value in double quotes: also `"`, and whitespace a parser would normalise. */
export const escapeAttribute = (value: string) => value.replace(/[&<>"\t\n\r]/g, escapeOne);

/** The namespaces Tally speaks, declared once on every answer's root. */
const ROOT_DECLARATIONS = [...PREFIXES]
  .map(([ns, prefix]) => ` xmlns:${prefix}="${escapeAttribute(ns)}"`)
  .join('');

/**
 * An element's qualified name: the prefix of a namespace Tally speaks, else `x`, which its start
 * tag declares (startOf). Names come from parsed requests or from this module, so they are valid
 * XML names.
 */
const tagOf = (node: XmlNode) =>
  node.ns === '' ? node.name : `${PREFIXES.get(node.ns) ?? 'x'}:${node.name}`;

/** An element's start tag without its closing `>`: its name, declarations and attributes. */
function startOf(node: XmlNode, tag: string, declarations: string) {
  let start = `<${tag}${declarations}`;
  if (node.ns !== '' && !PREFIXES.has(node.ns)) {
    start += ` xmlns:x="${escapeAttribute(node.ns)}"`;
  }
  const attributes = node.attributes;
  if (attributes) {
    for (const key of Object.keys(attributes)) {
      start += ` ${key}="${escapeAttribute(attributes[key] ?? '')}"`;
    }
  }
  return start;
}

/** Writes an element's children into `parts`. */
function writeChildren(node: XmlNode, parts: string[]): void {
  for (const child of node.children ?? []) {
    if (typeof child === 'string') parts.push(escapeText(child));
    else write(child, parts);
  }
}

/** An element's tags as written: `<d:href>`, `</d:href>` and `<d:href/>`. */
interface Tags {
  open: string;
  close: string;
  empty: string;
}

/**
 * The tags of elements without attributes in the namespaces Tally speaks, made once: a full sync
 * writes the same dozen elements 20,000 times. Names a client asks for are kept too; bounded,
 * emptied when full, so a client's many names cannot keep Tally's own out for good.
 */
const knownTags = new Map<string, Tags>();
const KNOWN_TAGS_KEPT = 256;

function tagsOf(node: XmlNode): Tags {
  const tag = tagOf(node);
  const kept = PREFIXES.has(node.ns) && !node.attributes;
  const found = kept ? knownTags.get(tag) : undefined;
  if (found) return found;
  const start = startOf(node, tag, '');
  const tags = { open: `${start}>`, close: `</${tag}>`, empty: `${start}/>` };
  if (kept) {
    if (knownTags.size >= KNOWN_TAGS_KEPT) knownTags.clear();
    knownTags.set(tag, tags);
  }
  return tags;
}

/** Writes an element and its children into `parts`. */
function write(node: XmlNode, parts: string[]): void {
  const tags = tagsOf(node);
  if (!node.children?.length) {
    parts.push(tags.empty);
    return;
  }
  parts.push(tags.open);
  writeChildren(node, parts);
  parts.push(tags.close);
}

/** About how much text an answer's stream hands the socket at a time. */
const CHUNK = 16 * 1024;

/**
 * Serialises an answer with its declaration, as text rather than a DOM: a multistatus of 500
 * calendar objects as a DOM was most of a full sync's garbage (docs/performance.md, CalDAV).
 */
export function buildXml(root: XmlNode): string {
  const tag = tagOf(root);
  const parts = [
    `<?xml version="1.0" encoding="utf-8"?>\n${startOf(root, tag, ROOT_DECLARATIONS)}>`,
  ];
  writeChildren(root, parts);
  parts.push(`</${tag}>`);
  return parts.join('');
}

/**
 * An answer of any length in pieces of about 16 KB: the root with its own children, then
 * `more`, each made only when it is written and read from the database a page at a time while
 * earlier pieces are on their way, so a multistatus of 10,000 responses never lies in memory
 * whole, neither as elements nor as text (docs/performance.md, CalDAV).
 */
export async function* xmlChunks(
  root: XmlNode,
  more: AsyncIterable<XmlNode> | Iterable<XmlNode> = [],
): AsyncGenerator<string> {
  const tag = tagOf(root);
  let parts = [`<?xml version="1.0" encoding="utf-8"?>\n${startOf(root, tag, ROOT_DECLARATIONS)}>`];
  let size = 0;
  writeChildren(root, parts);
  for await (const child of more) {
    const before = parts.length;
    write(child, parts);
    for (let i = before; i < parts.length; i += 1) size += parts[i]?.length ?? 0;
    if (size >= CHUNK) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  parts.push(`</${tag}>`);
  yield parts.join('');
}
