// Runs the conformance port against any registry, configured by the Go suite's
// own environment variables, e.g.:
//   OCI_ROOT_URL=http://127.0.0.1:5000 OCI_NAMESPACE=myorg/myrepo OCI_TEST_PULL=1 OCI_TEST_PUSH=1 \
//   OCI_TEST_CONTENT_DISCOVERY=1 OCI_TEST_CONTENT_MANAGEMENT=1 npm test -- dist/test/oci/conformance-env.test.js
// Skipped when OCI_ROOT_URL is not set (so `npm test` passes over it).
import { describe } from 'node:test';
import { runConformance } from './conformance/index.js';

const env = process.env;

/** strconv.ParseBool; what it refuses counts as false, as in setup.go. */
function parseBool(v: string | undefined): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v ?? '');
}

const root = env.OCI_ROOT_URL;
if (!root) {
  describe('OCI conformance against $OCI_ROOT_URL', { skip: 'OCI_ROOT_URL is not set' }, () => {});
} else {
  runConformance({
    registry: root,
    namespace: env.OCI_NAMESPACE ?? '',
    crossmountNamespace: env.OCI_CROSSMOUNT_NAMESPACE || undefined,
    username: env.OCI_USERNAME,
    password: env.OCI_PASSWORD,
    authScope: env.OCI_AUTH_SCOPE || undefined,
    workflows: {
      pull: parseBool(env.OCI_TEST_PULL),
      push: parseBool(env.OCI_TEST_PUSH),
      discovery: parseBool(env.OCI_TEST_CONTENT_DISCOVERY),
      management: parseBool(env.OCI_TEST_CONTENT_MANAGEMENT),
    },
    automaticCrossmount: env.OCI_AUTOMATIC_CROSSMOUNT === undefined ? undefined : parseBool(env.OCI_AUTOMATIC_CROSSMOUNT),
    deleteManifestBeforeBlobs: env.OCI_DELETE_MANIFEST_BEFORE_BLOBS === undefined ? true : parseBool(env.OCI_DELETE_MANIFEST_BEFORE_BLOBS),
    hideSkippedWorkflows: env.OCI_HIDE_SKIPPED_WORKFLOWS === '1',
    blobDigest: env.OCI_BLOB_DIGEST || undefined,
    manifestDigest: env.OCI_MANIFEST_DIGEST || undefined,
    tagName: env.OCI_TAG_NAME || undefined,
    tagList: env.OCI_TAG_LIST ? env.OCI_TAG_LIST.split(',') : undefined,
  });
}
