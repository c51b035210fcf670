// Image detection from the bytes with the file-type library: only UploadNoteImage bundles it.
import { fileTypeFromBuffer } from 'file-type';
import type { ImageTypes } from '../ports.ts';

export const fileTypeImages: ImageTypes = { detect: (bytes) => fileTypeFromBuffer(bytes) };
