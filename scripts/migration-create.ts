// `npm run migration:create -- <snake_case_name>`: writes a new migration skeleton into
// src/db/migrations and registers it in the committed list (see src/db/migration-file.ts).
import path from 'node:path';
import { createMigrationFile } from '../src/db/migration-file.js';

const name = process.argv[2];
if (!name) {
  process.stderr.write('usage: npm run migration:create -- <snake_case_name>   e.g. add_user_locale\n');
  process.exit(2);
}
try {
  const { className, file } = createMigrationFile({ name });
  process.stdout.write(
    `created ${path.relative(process.cwd(), file)} (${className}), registered in src/db/migrations/index.ts\n` +
      'write its SQL in up() (and down()); it runs on the next start of the API\n',
  );
} catch (error) {
  process.stderr.write(`migration:create: ${(error as Error).message}\n`);
  process.exit(1);
}
