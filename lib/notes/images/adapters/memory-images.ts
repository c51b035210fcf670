// In-memory adapter of the image store (unit tests).
import type { ImageStore } from '../../kernel/ports.ts';

export class MemoryImageStore implements ImageStore {
  readonly objects = new Map<string, { bytes: Buffer; mime: string }>();
  private n = 0;

  async put(noteId: string, bytes: Buffer, type: { mime: string; ext: string }): Promise<string> {
    const key = `notes/${noteId}/${++this.n}.${type.ext}`;
    this.objects.set(key, { bytes: Buffer.from(bytes), mime: type.mime });
    return key;
  }

  async deleteAll(noteId: string): Promise<void> {
    for (const key of [...this.objects.keys()])
      if (key.startsWith(`notes/${noteId}/`)) this.objects.delete(key);
  }
}
