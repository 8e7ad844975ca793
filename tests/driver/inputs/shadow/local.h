#pragma once
#define LOCAL_OFFSET 1.0f
