// What every workflow file shares, as the Go files share setup.go's package
// variables: the options (the Go suite's OCI_* environment variables), the test
// data, the client (built once the target is known, in the suite's before hook)
// and the setup/teardown switches computed by setup.go's init().
import { randomUUID } from 'node:crypto';
import { RegistryClient } from './client.js';
import { createTestData, CONTENT_DISCOVERY, CONTENT_MANAGEMENT, PULL, PUSH, type TestData } from './setup.js';
import { skip } from './spec-tree.js';

/** Where the suite runs: OCI_ROOT_URL, OCI_NAMESPACE, OCI_CROSSMOUNT_NAMESPACE, OCI_USERNAME, OCI_PASSWORD, OCI_AUTH_SCOPE. */
export interface ConformanceTarget {
  /** host:port (plain HTTP), or a full base URL such as https://r.example.com. */
  registry: string;
  namespace: string;
  /** Default, as in the Go suite: conformance-<random uuid>. */
  crossmountNamespace?: string;
  username?: string;
  password?: string;
  /** Replaces the scope of every token request. */
  authScope?: string;
}

/** What shapes the spec tree; read when the specs are registered. */
export interface ConformanceShape {
  /** OCI_TEST_PULL, OCI_TEST_PUSH, OCI_TEST_CONTENT_DISCOVERY, OCI_TEST_CONTENT_MANAGEMENT. */
  workflows: { pull: boolean; push: boolean; discovery: boolean; management: boolean };
  /** OCI_AUTOMATIC_CROSSMOUNT: undefined skips the automatic cross-mount specs. */
  automaticCrossmount?: boolean;
  /** OCI_DELETE_MANIFEST_BEFORE_BLOBS (default true). */
  deleteManifestBeforeBlobs?: boolean;
  /** OCI_HIDE_SKIPPED_WORKFLOWS: leave disabled workflows out instead of registering them skipped. */
  hideSkippedWorkflows?: boolean;
  /** OCI_BLOB_DIGEST, OCI_MANIFEST_DIGEST, OCI_TAG_NAME: with all three, pull runs on existing content, without its setup. */
  blobDigest?: string;
  manifestDigest?: string;
  tagName?: string;
  /** OCI_TAG_LIST: with it, content discovery runs on these tags, without its setup. */
  tagList?: string[];
  /** Spec path ("Content Discovery > Setup > References setup") → why it is expected to fail. */
  todo?: Record<string, string>;
}

export type ConformanceOptions = ConformanceTarget & ConformanceShape;

export class Suite {
  readonly data: TestData;
  readonly runPullSetup: boolean;
  readonly runContentDiscoverySetup: boolean;
  readonly runPushSetup = true;
  readonly runContentManagementSetup = true;
  readonly deleteManifestBeforeBlobs: boolean;
  readonly runAutomaticCrossmountTest: boolean;
  readonly automaticCrossmountEnabled: boolean;
  private readonly testsToRun: number;
  private connected: { client: RegistryClient; crossmountNamespace: string } | undefined;

  constructor(readonly shape: ConformanceShape) {
    this.data = createTestData({ blobDigest: shape.blobDigest, manifestDigest: shape.manifestDigest });
    const w = shape.workflows;
    this.testsToRun = (w.pull ? PULL : 0) | (w.push ? PUSH : 0) | (w.discovery ? CONTENT_DISCOVERY : 0) | (w.management ? CONTENT_MANAGEMENT : 0);
    this.runPullSetup = !(shape.tagName && shape.manifestDigest && shape.blobDigest);
    this.runContentDiscoverySetup = !(shape.tagList && shape.tagList.length > 0);
    this.deleteManifestBeforeBlobs = shape.deleteManifestBeforeBlobs ?? true;
    this.runAutomaticCrossmountTest = shape.automaticCrossmount !== undefined;
    this.automaticCrossmountEnabled = shape.automaticCrossmount === true;
  }

  enabled(workflow: number): boolean {
    return (workflow & this.testsToRun) > 0;
  }

  /** setup.go SkipIfDisabled, with generateSkipReport's hint. */
  skipIfDisabled(workflow: number): void {
    if (this.enabled(workflow)) return;
    const w = this.shape.workflows;
    skip(
      `you have skipped this test; if this is an error, check your workflow settings: pull=${w.pull} push=${w.push} discovery=${w.discovery} management=${w.management}`,
    );
  }

  connect(target: ConformanceTarget): void {
    const address = target.registry.includes('://') ? target.registry : `http://${target.registry}`;
    const client = new RegistryClient({
      address,
      defaultName: target.namespace,
      username: target.username,
      password: target.password,
      authScope: target.authScope,
    });
    this.connected = { client, crossmountNamespace: target.crossmountNamespace || `conformance-${randomUUID()}` };
  }

  close(): void {
    this.connected?.client.close();
  }

  get client(): RegistryClient {
    if (!this.connected) throw new Error('the conformance suite has no registry: its before hook did not run or failed');
    return this.connected.client;
  }

  get crossmountNamespace(): string {
    return this.connected ? this.connected.crossmountNamespace : '';
  }
}
