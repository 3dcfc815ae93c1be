// Private: what connect() imports lazily for the `auth` option.
export { OAuthSession } from "./session.ts";
export { createAuthFetch } from "./fetch.ts";
