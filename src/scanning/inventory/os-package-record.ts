// What an OS package database says of one package, before the image's OS is
// known (os-release may sit in a later layer): turned into InstalledPackage
// with its purl by os-packages.ts once every layer is read.

export interface OsPackageRecord {
  name: string;
  version: string;
  architecture?: string;
  source?: { name: string; version?: string };
  licenses?: string[];
}
