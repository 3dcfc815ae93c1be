// Private: the endpoints discovery left out of an authorization server's metadata (not a URL, or
// not https outside loopback) and why, kept beside the metadata object so that sign-out can say
// why it did not revoke, without a field of our own in the server's document.

const refused = new WeakMap<object, Map<string, string>>();

/** Remember that `field` was left out of `metadata`, and why (a sentence without a token). */
export function noteRefused(metadata: object, field: string, why: string): void {
  let fields = refused.get(metadata);
  if (fields === undefined) refused.set(metadata, fields = new Map());
  fields.set(field, why);
}

/** Why `field` was left out of `metadata`, if discovery left it out. */
export function refusedEndpoint(metadata: object, field: string): string | undefined {
  return refused.get(metadata)?.get(field);
}
