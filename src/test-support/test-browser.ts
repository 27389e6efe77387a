import { request } from 'undici';
import { sessionStateSchema, type SessionState } from '@/domain/auth';
import { runUsersCli } from '@/server/cli/users';
import { testStoreEnv } from './postgres-server';

/**
 * For tests only: what a browser does with the portal's session. It keeps the cookies the portal
 * sets, sends them back, sends Origin (and Sec-Fetch-Site) on calls that change something as a
 * browser's fetch does, and the CSRF token read from GET /api/session. Real HTTP, no mocks.
 */
export interface BrowserAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

export interface BrowserCall {
  body?: unknown;
  /** Raw body with its own content type (a form post, text/plain). */
  raw?: { contentType: string; body: string };
  /** Added to the browser's own; '' leaves one out. */
  headers?: Record<string, string>;
  /** Leave out x-csrf-token. */
  noToken?: boolean;
}

export class TestBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(
    readonly baseUrl: string,
    /** The page's origin: the portal's own unless a test says otherwise. */
    readonly origin: string = baseUrl,
  ) {}

  /** Every Set-Cookie the portal sent, as sent (to check the attributes). */
  readonly setCookies: string[] = [];

  private remember(header: string | string[] | undefined): void {
    for (const line of header === undefined ? [] : Array.isArray(header) ? header : [header]) {
      this.setCookies.push(line);
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async call(method: string, path: string, init: BrowserCall = {}): Promise<BrowserAnswer> {
    const changing = method !== 'GET' && method !== 'HEAD';
    const headers: Record<string, string> = { accept: 'application/json' };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    if (changing) {
      headers.origin = this.origin;
      headers['sec-fetch-site'] = this.origin === this.baseUrl ? 'same-origin' : 'cross-site';
      if (this.csrfToken && !init.noToken) headers['x-csrf-token'] = this.csrfToken;
    }
    let body: string | undefined;
    if (init.raw) {
      headers['content-type'] = init.raw.contentType;
      body = init.raw.body;
    } else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    Object.assign(headers, init.headers);
    // '' leaves a header out (an older browser without Sec-Fetch-Site, a script without Origin).
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    const res = await request(`${this.baseUrl}${path}`, {
      method: method as 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
    });
    this.remember(res.headers['set-cookie']);
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: res.headers,
      text,
      json: () => JSON.parse(text) as unknown,
    };
  }

  /** GET /api/session, keeping its CSRF token as the app does. */
  async session(): Promise<SessionState> {
    const answer = await this.call('GET', '/api/session');
    const state = sessionStateSchema.parse(answer.json());
    this.csrfToken = state.csrfToken;
    return state;
  }

  async signIn(email: string, password: string): Promise<BrowserAnswer> {
    const answer = await this.call('POST', '/api/session', { body: { email, password } });
    if (answer.status === 200) {
      this.csrfToken = sessionStateSchema.parse(answer.json()).csrfToken;
    }
    return answer;
  }
}

/** For tests: an account with a password, made through the users CLI on the portal's database. */
export async function addUser(
  /** The PORTAL_DB file (in the postgres test project, its database), or a PostgreSQL URL. */
  database: string | { databaseUrl: string },
  email: string,
  password: string,
  role: 'recruiter' | 'qa' | 'admin',
  orgs: readonly number[] = [],
): Promise<void> {
  let errors = '';
  const code = await runUsersCli(
    [
      'add',
      '--role',
      role,
      ...(orgs.length > 0 ? ['--org', orgs.join(',')] : []),
      '--password-stdin',
      email,
    ],
    {
      env:
        typeof database === 'string'
          ? testStoreEnv({ PORTAL_DB: database, LOG_LEVEL: 'silent' })
          : { DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'silent' },
      stdout: () => {},
      stderr: (text) => {
        errors += text;
      },
      readStdin: async () => `${password}\n`,
      askHidden: null,
    },
  );
  if (code !== 0) throw new Error(`users add ${email}: ${errors}`);
}
