// DataSource for the TypeORM CLI (`npm run migration:run`); the application builds the same one.
import 'reflect-metadata';
import { createDataSource } from './src/database/data-source';

export default createDataSource({ url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
