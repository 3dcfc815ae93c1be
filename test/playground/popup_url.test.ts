// The playground's sign-in popup guard (issue 18): the same-origin about:blank popup is only
// ever navigated to an http(s) URL, so an authorization URL of `javascript:` (or `data:`,
// `blob:`, `file:`) can never run in the playground's origin.
import assert from "node:assert/strict";
import { test } from "node:test";
import { signInPopupUrl } from "../../playground/src/popup_url.ts";

test("playground: the sign-in popup opens only http(s) URLs", () => {
  const ok = "https://auth.example.com/authorize?client_id=a&state=s";
  assert.equal(signInPopupUrl(new URL(ok)), ok);
  assert.equal(
    signInPopupUrl("http://127.0.0.1:8080/authorize"),
    "http://127.0.0.1:8080/authorize",
  );
  for (
    const bad of [
      "javascript:localStorage.setItem('pwned','1')",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "blob:https://auth.example.com/0b1c",
      "file:///etc/passwd",
      "not a url",
    ]
  ) {
    assert.throws(() => signInPopupUrl(bad), /^Error: Refusing to open the sign-in page/, bad);
  }
  const error = (() => {
    try {
      signInPopupUrl("javascript:fetch('//canary')");
    } catch (e) {
      return e as Error;
    }
  })();
  assert.match(error!.message, /uses "javascript:"; only http: and https: pages are opened/);
  assert.ok(!error!.message.includes("canary"), "the script is not echoed");
});
