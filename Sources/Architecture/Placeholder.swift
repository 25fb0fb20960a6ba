public enum ArchitecturePlaceholder {}
