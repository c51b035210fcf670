// API tokens: 256 random bits, shown once, stored only as their SHA-256.
import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'tri_';
const TOKEN_PATTERN = /^tri_[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => PREFIX + randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const isWellFormedToken = (token: string): boolean => TOKEN_PATTERN.test(token);
