// The playground's entry: mount the app — or, in the sign-in popup, hand the authorization
// server's redirect to the page that started the sign-in (see oauth.ts).
import { mount } from "svelte";
import App from "./App.svelte";
import { isOAuthCallback, relayCallback } from "./oauth.ts";
import { closeAll } from "./state.svelte.ts";
import "./style.css";

if (isOAuthCallback()) relayCallback();
else {
  mount(App, { target: document.getElementById("app")! });
  // Leaving or closing the page ends every MCP session it holds (HTTP DELETE).
  addEventListener("pagehide", closeAll);
}
