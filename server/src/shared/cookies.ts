import type { FastifyRequest } from 'fastify';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Whether a cookie set for this request must be Secure: whenever the browser came over HTTPS
 * (also through a proxy that reaches us on localhost), and always off localhost. A Secure
 * cookie's name takes the __Secure- prefix, which browsers accept only from HTTPS with Secure
 * set: a cookie planted over plain HTTP cannot pose as it.
 */
export const isSecureRequest = (request: FastifyRequest) =>
  request.protocol === 'https' || !LOCAL_HOSTS.has(request.hostname);

/** The name of a cookie for this request: `__Secure-name` whenever it is Secure. */
export const cookieName = (request: FastifyRequest, name: string) =>
  isSecureRequest(request) ? `__Secure-${name}` : name;
