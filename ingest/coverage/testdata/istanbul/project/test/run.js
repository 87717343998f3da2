'use strict';
require('../src/index').run([]);
