// The one gate before the sign-in popup is navigated. The popup starts as about:blank, which
// shares the playground's origin (where the sealed tokens and API keys live): navigating it to a
// `javascript:` URL would run that script in this origin, and `data:`/`blob:`/`file:` URLs have
// no business there either. The library already refuses an authorization endpoint that is not
// https (or http on loopback) before `onAuthorize` is called; this checks again, here, so that
// no URL reaches the popup unchecked whatever the library or a future caller does.

/** The `href` the sign-in popup may be navigated to: http: and https: URLs only, else throws. */
export function signInPopupUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new Error("Refusing to open the sign-in page: the authorization URL is not a URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new Error(
      `Refusing to open the sign-in page: the authorization server's URL uses ` +
        `"${parsed.protocol}"; only http: and https: pages are opened`,
    );
  }
  return parsed.href;
}
