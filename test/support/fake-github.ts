/**
 * A small fake of GitHub's REST API on loopback: `POST
 * /repos/{owner}/{repo}/issues/{number}/comments` answers 201 as GitHub does
 * and records the comment, its token and headers; a missing or wrong token is
 * 401, anything else 404.
 */
export interface RecordedComment {
  repository: string;
  number: number;
  body: string;
  authorization: string | null;
  headers: Record<string, string>;
}

export interface FakeGitHub {
  url: string;
  comments: RecordedComment[];
  /** Every request, `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

export function startFakeGitHub(token: string): FakeGitHub {
  const comments: RecordedComment[] = [];
  const requests: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      requests.push(`${req.method} ${url.pathname}`);
      const route = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
      if (req.method !== 'POST' || route === null) return Response.json({ message: 'Not Found' }, { status: 404 });
      const authorization = req.headers.get('authorization');
      if (authorization !== `Bearer ${token}`) return Response.json({ message: 'Bad credentials' }, { status: 401 });
      const payload = (await req.json()) as { body?: unknown };
      if (typeof payload.body !== 'string') return Response.json({ message: 'Invalid request: body is required' }, { status: 422 });
      const number = Number(route[2]);
      comments.push({ repository: route[1] ?? '', number, body: payload.body, authorization, headers: Object.fromEntries(req.headers.entries()) });
      const id = comments.length;
      return Response.json(
        { id, body: payload.body, html_url: `https://github.com/${route[1]}/pull/${number}#issuecomment-${id}`, user: { login: 'github-actions[bot]' } },
        { status: 201 },
      );
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, comments, requests, close: () => server.stop(true) };
}
