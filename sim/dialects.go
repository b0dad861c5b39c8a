package sim

// Every physics dialect registers its codecs with the model on import, so
// the documents this package decodes read and write all of them.
import _ "physview/scene/dialects"
