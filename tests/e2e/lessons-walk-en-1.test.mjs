// The course walk (lesson-walk.mjs), in English, answering right, lessons of half 1.
import { test } from 'node:test';
import { lessons, walkCourse } from './lesson-walk.mjs';

const middle = Math.ceil(lessons.length / 2);
const [first, last] = [lessons[0], lessons[middle - 1]];
test(`lessons ${first.number}-${last.number} end to end in en, answering right`, () => walkCourse('en', true, 0));
