// PocketSphinx 5prealpha (Debian) with the sphinxbase parts the decoder client uses.
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/cmn.h>
// The MFCC front end alone, for the voice features of the second pass's sentences.
#include <sphinxbase/fe.h>
