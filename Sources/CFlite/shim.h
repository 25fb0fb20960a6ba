// flite's CMU lexicon and letter-to-sound rules (Debian flite1-dev): only what the
// pronunciation client uses.
#include <flite/cst_val.h>
#include <flite/cst_lexicon.h>

// Defined in libflite_cmulex; flite's headers do not declare it.
cst_lexicon *cmu_lex_init(void);
