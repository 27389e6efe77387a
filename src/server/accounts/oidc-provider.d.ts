/**
 * The little of oidc-provider (a dev dependency, shipped without types) that the single sign-on
 * tests use: a real OpenID provider started on a free port.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
