// The issuer every pull-token identity's static keys name. It marks an
// identity whose JWT is a registry password (accepted at /token again and
// again) rather than a one-shot assertion for /sts/exchange; the CLI writes
// it (`berth auth pull-token create`), the registry's token service and the
// token exchange read it. A fixed string, not a URL of this server, so pull
// tokens outlive a change of the API's public URL.
export const PULL_TOKEN_ISSUER = 'berth:pull-token';
