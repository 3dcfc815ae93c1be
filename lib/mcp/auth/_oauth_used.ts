// Private: the parts of oauth4webapi the client uses, by name, so a bundler keeps only those
// (a namespace import, `import("oauth4webapi")`, keeps all of it: 14 KiB gzip against 8 in a
// one-file bundle of "."). _oauth.ts loads this module on first use.

export {
  allowInsecureRequests,
  authorizationCodeGrantRequest,
  calculatePKCECodeChallenge,
  clientCredentialsGrantRequest,
  ClientSecretPost,
  customFetch,
  DPoP,
  dynamicClientRegistrationRequest,
  generateKeyPair,
  generateRandomCodeVerifier,
  generateRandomState,
  isDPoPNonceError,
  None,
  PrivateKeyJwt,
  processAuthorizationCodeResponse,
  processClientCredentialsResponse,
  processRefreshTokenResponse,
  processRevocationResponse,
  protectedResourceRequest,
  refreshTokenGrantRequest,
  revocationRequest,
  validateAuthResponse,
  WWWAuthenticateChallengeError,
} from "oauth4webapi";
