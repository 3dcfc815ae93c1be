// Private: the parts of oauth4webapi the client uses, by name, so a bundler keeps only those
// (a namespace import, `import("oauth4webapi")`, keeps all of it: 14 KiB gzip against 8 in a
// one-file bundle of "."). _oauth.ts loads this module on first use.

export {
  ClientSecretPost,
  DPoP,
  None,
  PrivateKeyJwt,
  WWWAuthenticateChallengeError,
  allowInsecureRequests,
  authorizationCodeGrantRequest,
  calculatePKCECodeChallenge,
  clientCredentialsGrantRequest,
  customFetch,
  dynamicClientRegistrationRequest,
  generateKeyPair,
  generateRandomCodeVerifier,
  generateRandomState,
  isDPoPNonceError,
  processAuthorizationCodeResponse,
  processClientCredentialsResponse,
  processRefreshTokenResponse,
  processRevocationResponse,
  protectedResourceRequest,
  refreshTokenGrantRequest,
  revocationRequest,
  validateAuthResponse,
} from "oauth4webapi";
