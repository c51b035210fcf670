// Schemas are zod/mini (docs/validation.md): zod's own checks and messages without the classic
// API's 440 KiB of methods. zod/mini loads no locale, so every issue would read "Invalid input";
// every module that parses imports this one, which loads the English messages zod classic has.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());
