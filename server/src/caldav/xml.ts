import { DOMImplementation, DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import { badRequest } from '../shared/errors.js';

/**
 * WebDAV's XML, read and written with @xmldom/xmldom (docs/decisions/085-caldav.md): requests are
 * parsed namespace-aware, so `<D:prop xmlns:D="DAV:">`, `<prop xmlns="DAV:">` and any other
 * prefix mean the same, and answers are built as a DOM and serialised, never by string joining.
 * xmldom resolves no external entities (no XXE); a document type declaration is refused anyway.
 */

export const NS = {
  dav: 'DAV:',
  caldav: 'urn:ietf:params:xml:ns:caldav',
  cs: 'http://calendarserver.org/ns/',
  apple: 'http://apple.com/ns/ical/',
} as const;

/** The prefixes answers use for the namespaces Tally speaks; others get x0, x1, … */
const PREFIXES: Record<string, string> = {
  [NS.dav]: 'd',
  [NS.caldav]: 'c',
  [NS.cs]: 'cs',
  [NS.apple]: 'ic',
};

/** A property or element name: its namespace and local name. */
export interface XmlName {
  ns: string;
  name: string;
}

export const nameKey = ({ ns, name }: XmlName) => `{${ns}}${name}`;

/** Parses a request body; a body that is not well-formed XML is a 400. */
export function parseXml(text: string): Element {
  if (/<!DOCTYPE/i.test(text))
    throw badRequest('body: XML document type declarations are not accepted');
  let problem = false;
  let root: Element | null = null;
  try {
    root = new DOMParser({
      onError: (level) => {
        if (level !== 'warning') problem = true;
      },
    }).parseFromString(text, 'text/xml').documentElement;
  } catch {
    // xmldom throws a ParseError on a fatal error (an unclosed element, …).
    problem = true;
  }
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

export const el = (
  ns: string,
  name: string,
  ...children: readonly (XmlNode | string | null)[]
): XmlNode => ({ ns, name, children: children.filter((child) => child !== null) });

export const dav = (name: string, ...children: readonly (XmlNode | string | null)[]) =>
  el(NS.dav, name, ...children);

/** Serialises an answer with its declaration; every namespace is declared on the root. */
export function buildXml(root: XmlNode): string {
  const prefixes = new Map<string, string>(Object.entries(PREFIXES));
  const used = new Set<string>();
  const collect = (node: XmlNode) => {
    used.add(node.ns);
    if (!prefixes.has(node.ns)) prefixes.set(node.ns, `x${prefixes.size - 4}`);
    for (const child of node.children ?? []) if (typeof child !== 'string') collect(child);
  };
  collect(root);
  const qualified = (node: XmlNode) =>
    node.ns === '' ? node.name : `${prefixes.get(node.ns) ?? 'x'}:${node.name}`;
  const document = new DOMImplementation().createDocument(root.ns, qualified(root), null);
  const top = document.documentElement;
  if (!top) throw new Error('createDocument made no root');
  for (const ns of used) {
    if (ns !== '')
      top.setAttributeNS('http://www.w3.org/2000/xmlns/', `xmlns:${prefixes.get(ns)}`, ns);
  }
  const fill = (element: Element, node: XmlNode) => {
    for (const [key, value] of Object.entries(node.attributes ?? {}))
      element.setAttribute(key, value);
    for (const child of node.children ?? []) {
      if (typeof child === 'string') {
        element.appendChild(document.createTextNode(child));
      } else {
        const made = document.createElementNS(child.ns, qualified(child));
        fill(made, child);
        element.appendChild(made);
      }
    }
  };
  fill(top, root);
  return `<?xml version="1.0" encoding="utf-8"?>\n${new XMLSerializer().serializeToString(document)}`;
}
