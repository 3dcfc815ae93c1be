// Servers the person routes through `npm start`'s loopback relay (servers that send no CORS
// headers). The registry keeps each server's real URL; the set of relayed URLs lives in
// localStorage, and `viaRelay` sends their requests to the relay's route for them, registered
// with the per-run token from /playground.json (the relay forwards nowhere else).
const KEY = "skillmux-playground/relayed";
const TOKEN_HEADER = "X-Skillmux-Relay-Token";

interface RelayInfo {
  url: string;
  token: string;
}

let info: Promise<RelayInfo | undefined> | undefined;
const routes = new Map<string, Promise<string>>();

/** The relay `npm start` runs, or undefined when the page is hosted elsewhere. */
export function relayInfo(): Promise<RelayInfo | undefined> {
  info ??= fetch("./playground.json")
    .then((r) => (r.ok ? r.json() : undefined))
    .then((config) => config?.relay as RelayInfo | undefined)
    .catch(() => undefined);
  return info;
}

function relayed(): string[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]");
  } catch {
    return [];
  }
}

/** Whether requests to `url` go through the relay. */
export function isRelayed(url: string | undefined): boolean {
  return url !== undefined && relayed().includes(url);
}

/** Route `url` through the relay, or not. */
export function setRelayed(url: string | undefined, on: boolean): void {
  if (url === undefined) return;
  const rest = relayed().filter((u) => u !== url);
  localStorage.setItem(KEY, JSON.stringify(on ? [...rest, url] : rest));
  routes.delete(url);
}

async function routeFor(relay: RelayInfo, url: string): Promise<string> {
  let route = routes.get(url);
  if (!route) {
    route = fetch(`${relay.url}/targets`, {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: relay.token },
      body: JSON.stringify({ url }),
    }).then(async (r) => {
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(`The npm start relay refused ${url}: ${body.error ?? r.status}`);
      return body.url as string;
    });
    routes.set(url, route);
    route.catch(() => routes.delete(url));
  }
  return await route;
}

/** `inner`, with requests to relayed servers sent through the relay. */
export function viaRelay(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!isRelayed(url)) return inner(input, init);
    const relay = await relayInfo();
    if (!relay) {
      throw new Error(`${url} is set to go through the npm start relay, but this page was not served by npm start`);
    }
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set(TOKEN_HEADER, relay.token);
    return inner(await routeFor(relay, url), { ...init, headers });
  };
}
