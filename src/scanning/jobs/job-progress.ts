// Progress of a running job, kept in memory and written with the lease's
// heartbeat (scan-worker.ts), so a fast stream of chunks costs no writes.

export class JobProgress {
  layersDone = 0;
  layersTotal = 0;
  bytesRead = 0;

  setTotal(layers: number): void {
    this.layersTotal = layers;
  }

  read(bytes: number): void {
    this.bytesRead += bytes;
  }

  layerDone(): void {
    this.layersDone += 1;
  }
}
